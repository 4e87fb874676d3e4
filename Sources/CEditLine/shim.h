// libedit (BSD editline) for the interactive REPL: line editing and history.
#include <stdio.h>
#include <editline/readline.h>

/// Lets the REPL handle Ctrl-C itself: libedit installs no signal handlers (they would leave the
/// terminal in cooked mode), and keys are read by `getc` (which turns Ctrl-C into "abandon the
/// line").
static inline void stackdoc_editline_setup(int (*getc)(FILE *)) {
    rl_catch_signals = 0;
    rl_getc_function = getc;
}

/// Before libedit initializes: the prompt and the echo of the keys go to standard error when
/// `to_stderr` (standard output is piped: it carries only results).
static inline void stackdoc_editline_output(int to_stderr) {
    if (to_stderr) rl_outstream = stderr;
}

/// Tab completion: `complete(text, start, end)` returns the matches for the word `text` (at
/// bytes start..<end of the line) from `stackdoc_completion_matches`, or NULL; `over` (set by
/// `stackdoc_completion_set_over`) says whether libedit may then complete file names.
static inline void stackdoc_editline_completion(char **(*complete)(const char *, int, int)) {
    rl_attempted_completion_function = complete;
}

static inline void stackdoc_completion_set_over(int over) {
    rl_attempted_completion_over = over;
}

/// The character libedit writes after a completed word (a space; 0 for none).
static inline void stackdoc_completion_append(int c) {
    rl_completion_append_character = c;
}

/// The line being edited (libedit's `rl_line_buffer`).
static inline const char *stackdoc_line_buffer(void) {
    return rl_line_buffer;
}

/// The match list for `text` from the generator `next(text, state)` (state 0 starts over).
static inline char **stackdoc_completion_matches(const char *text, char *(*next)(const char *, int)) {
    return rl_completion_matches(text, next);
}
