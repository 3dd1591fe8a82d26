"""Helpers shared by the tests (pytest puts ``tests`` on the path: ``pythonpath`` in
pyproject.toml), imported as ``support.<module>``: ``srvhelpers`` (WebSocket clients, an app
or a real ``laizi serve`` process, ``free_port``), ``livesrv`` (HTTP calls on a live server),
``webhelpers`` (the system Chromium and a person's moves), ``clusterplay``, ``socialkit``,
``prealembic``, ``flowwall``, ``game_helpers``, ``policies``, ``positions``, ``matchrows``."""
