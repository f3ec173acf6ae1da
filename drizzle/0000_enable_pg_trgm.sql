-- pg_trgm backs the trigram indexes that keep title search fast at catalogue scale.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
