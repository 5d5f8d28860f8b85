"""The web table: ``meeplezoo serve`` plays the games in a browser (``app``: Starlette and the
JSON API; ``tables``: the games on the server and what each client may see; ``static/``: the
page, plain HTML, CSS and JavaScript)."""
