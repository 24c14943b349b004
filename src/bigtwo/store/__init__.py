"""Storage in SQL databases, above the table service and below every front end.

- :mod:`.matches`: the terminal game's matches (as game records), preferences, high scores
  and lifetime statistics, in an embedded SQLite file; :mod:`.match_schema`: that file's
  tables, in numbered versions, and the rows it gives back.
- :mod:`.tables`: tables' configurations, snapshots and command logs, on SQLite or
  PostgreSQL, which the server keeps its tables in and the terminal game its local table.
- :mod:`.sql`: the two databases behind one small connection; :mod:`.migrations`: the table
  store's schema, in numbered versions.
- :mod:`.accounts`, :mod:`.reviews`: players' accounts and the coach's reviews of finished
  deals, in the table store's database.

The errors it raises are the match layer's (:mod:`bigtwo.match.errors`).
"""
