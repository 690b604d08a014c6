"""One module per command beyond build, check and verify (``forge play`` ...): forge.cli only parses the command
line and calls the command's ``run(args)``."""
