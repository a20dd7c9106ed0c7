"""The course website: bleu-teach as static pages that run bleu_teach in the browser, and the demo deck.

``python -m bleu_teach_site --wheel <the package's wheel>`` (``make site``) writes build/site/; the modules:

- :mod:`~bleu_teach_site.build`: the whole site, and the command;
- :mod:`~bleu_teach_site.course`: the course manifest (notebooks/course.toml) and the README's lessons table;
- :mod:`~bleu_teach_site.lessons`: the lesson pages, the glossary, the teacher's guide;
- :mod:`~bleu_teach_site.markdown`: nbconvert's Markdown renderer, with the site's links and the pages' contents;
- :mod:`~bleu_teach_site.live`: the lessons' explorers and exercises as live forms;
- :mod:`~bleu_teach_site.browser_python`: what the pages' Python loads besides the wheel;
- :mod:`~bleu_teach_site.slides`: the deck as a reveal.js page that opens from disk.

It is not part of the installed package (``pip install bleu-teach`` gives the library, the lessons' support and the
command line); it builds the site from this repository, and tests/test_layers.py keeps it above ``bleu_teach``.
"""
