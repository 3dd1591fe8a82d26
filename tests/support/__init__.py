"""Helpers shared by the tests (pytest puts ``tests`` on the path: ``pythonpath`` in
pyproject.toml), imported as ``support.<module>``: ``srvhelpers`` (WebSocket clients, the one
``free_port``, ``LiveServer``: a real ``laizi serve``), ``webhelpers`` (the system Chromium and
a person's moves), ``nodes`` (cluster nodes, HAProxy), ``clusterplay``, ``socialkit``,
``prealembic``, ``matchrows``, ``flowwall``, ``game_helpers``, ``policies``, ``positions``, and
``tiers`` (the heavy unit tests)."""
