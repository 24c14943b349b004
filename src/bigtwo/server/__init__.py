"""The game server: HTTP lobby and WebSocket tables (:mod:`.app`, :mod:`.hub`), and the load
and abuse benchmarks, which drive a server through the network client (:mod:`bigtwo.client`).
It keeps its tables in the table store (:mod:`bigtwo.store.tables`). The messages server and
client speak are declared below both, in :mod:`bigtwo.protocol`.

Imports are left to the submodules, so the server does not pull in the client's WebSocket
library until a benchmark asks for it.
"""
