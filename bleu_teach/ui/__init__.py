"""User interfaces: notebook widgets, matplotlib plots, the command line, the explorer's typed input."""
