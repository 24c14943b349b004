"""The game server: HTTP lobby and WebSocket tables (:mod:`.app`, :mod:`.hub`), storage of
tables (:mod:`.storage`), the protocol's checks (:mod:`.protocol`), and a Python client
library with a computer-player client (:mod:`.client`) used by tests and the load benchmark.

Imports are left to the submodules so that ``import bigtwo.server.client`` does not pull in
Starlette, and the server does not pull in the client's WebSocket library.
"""
