-- 0009_warnings_by_director: who gave a warning.
--
-- 1: a tournament director (tournament.warn, Art. 23), whose reason is free text; 0: the
-- referee (an offence, Art. 17-18). The game object's warning_log says which. Rows written
-- before this migration have NULL: their source is told from the reason (an offence's name is
-- the referee's), as before.
ALTER TABLE warnings ADD COLUMN by_director INTEGER CHECK (by_director IN (0, 1));
