/* commands: the subcommands of tokentrace-analyze. Each takes the arguments
 * after its name and returns the process exit code (0 ok, 1 failure or
 * damaged input, 2 usage error). */
#ifndef TT_COMMANDS_H
#define TT_COMMANDS_H

int cmd_dump(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_requests(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_trend(int argc, char **argv);
int cmd_share(int argc, char **argv);
int cmd_capacity(int argc, char **argv);

struct analyze_options;
/* summary --as TOOL|all (cmd_summary_as.c): o is summary's parsed
 * options. Same exit codes. */
int cmd_summary_as(const struct analyze_options *o);

#endif
