/* One function per command; each returns the process exit code. */
#ifndef TF_COMMANDS_H
#define TF_COMMANDS_H

enum exit_code { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_TROUBLE = 2 };

int cmd_lint(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_docs(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_lsp(int argc, char **argv);
int cmd_mcp(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_instances(int argc, char **argv);
int cmd_prices(int argc, char **argv);
int cmd_completion(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
