"""The data model every layer shares, at the bottom of the imports: the records ingest produces and the
knowledge base stores (`records`), the kinds of sources and rulings (`kinds`), the ref grammar (`refs`),
citation text (`citation`), the words and line forms of stored text (`text`), the database schema with its
migrations (`schema`) and the changeset a writer applies (`changeset`). It imports nothing of the project."""
