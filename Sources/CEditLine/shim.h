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
