// What of the MongoDB adapter can be checked without a server: the driver-error mapping, and a real
// connection attempt to a closed port. The contract itself runs in mongodb.spec.ts when MONGO_URL is set.
import { expect } from "chai";
import { MongoBulkWriteError, MongoServerError } from "mongodb";
import { createStore, DuplicateKeyError, type StoreError } from "../../shared/store";
import { duplicateIndexOf, mapMongoError } from "../../shared/store/mongo-store";
import { expectStoreError } from "./support";

describe("MongoDB adapter without a server", function () {
  it("maps a duplicate-key server error (11000) to DuplicateKeyError with the index and key", function () {
    const err = new MongoServerError({
      message: 'E11000 duplicate key error collection: db.locks index: name_1 dup key: { name: "x" }',
      code: 11000,
      keyValue: { name: "x" },
    });
    const mapped = mapMongoError(err, "locks") as DuplicateKeyError;
    expect(mapped).to.be.instanceOf(DuplicateKeyError);
    expect(mapped.type).to.equal("DUPLICATE_KEY");
    expect(mapped.data).to.deep.equal({ collection: "locks", key: { name: "x" }, index: "name_1" });
  });

  it("finds the position of the duplicate in an ordered bulk insert, so the prefix before it can be rolled back", function () {
    const err = new MongoBulkWriteError(
      {
        message: "E11000",
        code: 11000,
        writeErrors: [{ index: 2, code: 11000, errmsg: "E11000 duplicate key error index: _id_ dup key" }] as never,
      },
      {} as never,
    );
    expect(duplicateIndexOf(err)).to.equal(2);
    expect((mapMongoError(err, "c") as StoreError).data).to.include({ index: "_id_" });
    expect(duplicateIndexOf(new MongoServerError({ message: "other", code: 2 }))).to.equal(undefined);
  });

  it("maps bad-value / type-mismatch / path errors to INVALID_STORE_QUERY and passes unknown errors through", function () {
    for (const code of [2, 14, 28]) {
      const mapped = mapMongoError(new MongoServerError({ message: `code ${code}`, code }), "c") as StoreError;
      expect(mapped.type).to.equal("INVALID_STORE_QUERY");
      expect(mapped.data).to.include({ mongoCode: code });
    }
    const unknown = new Error("something else");
    expect(mapMongoError(unknown, "c")).to.equal(unknown);
  });

  it("reports an unreachable server as a retryable STORE_UNAVAILABLE", async function () {
    const err = await expectStoreError(
      () => createStore({ mongoUrl: "mongodb://127.0.0.1:1/unreachable", serverSelectionTimeoutMS: 300 }),
      "STORE_UNAVAILABLE",
    );
    expect(err.retryable).to.equal(true);
    expect(err.data).to.include({ cause: "MongoServerSelectionError" });
  });
});
