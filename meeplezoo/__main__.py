"""``python -m meeplezoo <command> ...``: the same commands as the ``meeplezoo`` script."""

from meeplezoo.cli import main

raise SystemExit(main())
