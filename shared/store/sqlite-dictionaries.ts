/**
 * A collection's compression dictionaries in the SQLite adapter. The dictionary is learned once the collection holds
 * `LEARN_AFTER` documents, from them (kept as plain JSON until then, compressed in place when it is learned), stored
 * in `_store_dictionaries` and never changed afterwards; a collection that never holds that many (a checkpoint,
 * cursors) keeps plain JSON. Learning reads a bounded head of each of those documents and never fails a write: when
 * it fails, the collection stays plain JSON until the store is opened again.
 */
import { decodeDocument, encodeDocument, learnDictionary, RAW, SAMPLE_CHARS, type Dictionary } from "./document-codec";
import type { SqliteDatabase } from "./sqlite-database";

/** Documents written to a collection before its dictionary is learned from them. */
export const LEARN_AFTER = 32;

/** Bytes read of a row to sample its first `SAMPLE_CHARS` characters: the header, then 3 UTF-8 bytes per UTF-16 unit at most. */
const SAMPLE_READ_BYTES = 1 + 3 * SAMPLE_CHARS;

export class CollectionDictionaries {
  /** The dictionary new documents are compressed with; undefined until it is learned. */
  private current: Dictionary | undefined;
  /** Every dictionary a stored document may name, by its header byte. */
  private readonly known = new Map<number, Uint8Array>();
  /** Set when learning failed: the collection stays plain JSON until the store is opened again. */
  private learningFailed = false;

  constructor(
    private readonly database: SqliteDatabase,
    private readonly collection: string,
    /** The collection's table name, quoted. */
    private readonly table: string,
  ) {}

  /** Reads the collection's dictionaries (at open, and after a rolled-back transaction). */
  load(): void {
    this.known.clear();
    this.current = undefined;
    const rows = this.database
      .statement("SELECT id, dictionary FROM _store_dictionaries WHERE collection = ? ORDER BY id")
      .all(this.collection);
    for (const row of rows) {
      const dictionary = { id: Number(row.id), bytes: row.dictionary as Uint8Array };
      this.known.set(dictionary.id, dictionary.bytes);
      this.current = dictionary;
    }
  }

  /** The stored form of a document's JSON text: compressed once the dictionary is learned. */
  encode(body: string): Uint8Array {
    return encodeDocument(body, this.current);
  }

  /** The JSON text (without `_id`) of a stored document. @throws StoreError `STORE_CORRUPT` */
  decode(stored: Uint8Array): string {
    return decodeDocument(stored, (id) => this.known.get(id));
  }

  /**
   * After an insert (in its transaction): learns the dictionary when the collection holds `LEARN_AFTER` documents.
   * Rows, not writes, are counted: a small collection rewritten often (a checkpoint, a cursor) stays plain JSON,
   * where compression would cost every write and save nothing worth it. Learning never fails the write: on any
   * error its own changes are undone (a savepoint), the write goes on storing plain JSON, one warning is emitted,
   * and the collection is not tried again until the store is next opened.
   */
  afterInsert(): void {
    if (this.current !== undefined || this.learningFailed) return;
    const held = this.database.statement(`SELECT count(*) AS n FROM (SELECT 1 FROM ${this.table} LIMIT ${LEARN_AFTER})`).get()?.n;
    if (Number(held) < LEARN_AFTER) return;
    const db = this.database.db;
    db.exec("SAVEPOINT learn_dictionary");
    try {
      this.learn();
      db.exec("RELEASE learn_dictionary");
    } catch (err) {
      db.exec("ROLLBACK TO learn_dictionary");
      db.exec("RELEASE learn_dictionary");
      this.known.clear();
      this.current = undefined;
      this.learningFailed = true;
      warnNotLearned(this.collection, err);
    }
  }

  /**
   * Learns the dictionary from the first `LEARN_AFTER` rows, each read only up to its first `SAMPLE_CHARS`
   * characters, stores it, and compresses those rows in place, one at a time (rows written plain after them, when
   * an earlier attempt failed, stay plain until rewritten: header 0 always reads).
   */
  private learn(): void {
    const sql = (text: string) => this.database.statement(text);
    const firstRows = sql(
      `SELECT rowid AS id, substr(doc, 1, ${SAMPLE_READ_BYTES}) AS head FROM ${this.table} ORDER BY rowid LIMIT ${LEARN_AFTER}`,
    ).all();
    const dictionary: Dictionary = { id: 1, bytes: learnDictionary(firstRows.map((r) => this.decode(r.head as Uint8Array))) };
    sql("INSERT INTO _store_dictionaries (collection, id, dictionary) VALUES (?, ?, ?)").run(
      this.collection,
      dictionary.id,
      dictionary.bytes,
    );
    this.known.set(dictionary.id, dictionary.bytes);
    this.current = dictionary;
    const read = sql(`SELECT doc FROM ${this.table} WHERE rowid = ?`);
    const update = sql(`UPDATE ${this.table} SET doc = ? WHERE rowid = ?`);
    for (const row of firstRows) {
      const id = row.id as number;
      const stored = read.get(id)?.doc as Uint8Array;
      if (stored[0] !== RAW) continue;
      const packed = encodeDocument(this.decode(stored), dictionary);
      if (packed[0] !== RAW) update.run(packed, id);
    }
  }
}

/** Tells, once per collection and process, that its dictionary could not be learned and why (its documents stay plain). */
function warnNotLearned(collection: string, err: unknown): void {
  const e = err as { type?: string; name?: string; message?: string };
  process.emitWarning(
    `collection ${collection}: no compression dictionary learned, documents stay plain JSON (${e?.type ?? e?.name}: ${e?.message ?? String(err)})`,
    { code: "STORE_DICTIONARY_NOT_LEARNED" },
  );
}
