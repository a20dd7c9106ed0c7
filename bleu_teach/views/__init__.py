"""Views: documents and the writers that turn them into text, HTML, Markdown, LaTeX and JSON (standard library only)."""
