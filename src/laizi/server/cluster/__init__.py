"""The server as several nodes sharing one PostgreSQL and one Redis (``laizi serve --redis``).

- :mod:`.fence` — fencing tokens in the database, checked on every write of a room;
- :mod:`.lease` — room leases in Redis (``SET NX PX``, renewed by a compare script) and
  the per-room token counter; the registry of live nodes;
- :mod:`.bus` — messages between nodes over Redis pub/sub (one channel per node);
- :mod:`.remote` — the owner's side of a relayed connection (:class:`RemoteConn`);
- :mod:`.router` — the relaying side: a local WebSocket in a room another node owns;
- :mod:`.node` — one node: leases held, takeovers, the shared room list;
- :mod:`.drain` — handing a node's rooms over before it exits (SIGTERM);
- :mod:`.authsync` — logins, logouts and token rotations seen by every node;
- :mod:`.supervisor` — ``--workers N`` processes on one port (``SO_REUSEPORT``).

Only :mod:`.fence` is imported by the single-process server; the others need ``redis``
(the ``cluster`` extra). See docs/cluster.md.
"""
