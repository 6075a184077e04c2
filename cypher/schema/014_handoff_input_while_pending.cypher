// A handoff keeps its input document only while a writer has to read it (see handoffs/create): a store
// written before drops it from every handoff that is no longer pending, in batches, so it can run
// again. The document's digest, the text and the receipt stay.
MATCH (handoff:ContextHandoff)
WHERE handoff.inputDocument IS NOT NULL AND handoff.status <> 'pending'
CALL (handoff) {
  REMOVE handoff.inputDocument
} IN TRANSACTIONS OF 500 ROWS;
