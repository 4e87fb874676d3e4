// libedit (BSD editline) for the interactive REPL: line editing and history.
#include <stdio.h>
#include <editline/readline.h>
