// Runs the store contract against a real MongoDB when MONGO_URL is set (a nightly/staging job with a server).
// Without it nothing is defined here and one plain line says so: the adapter is then only type-checked
// (tsc --noEmit) and its error mapping unit-tested (mongo-adapter-offline.spec.ts).
import { randomUUID } from "node:crypto";
import { MongoClient } from "mongodb";
import { createStore } from "../../shared/store";
import { describeRepositoryContract } from "./repository.contract";

const mongoUrl = process.env.MONGO_URL;

if (mongoUrl === undefined || mongoUrl === "") {
  console.log("[store] MongoDB adapter NOT exercised: MONGO_URL is unset (no MongoDB server available); the contract ran on SQLite only.");
} else {
  const dbName = `contract_${randomUUID().slice(0, 8)}`;
  describe("MongoDB adapter", function () {
    const open = () => createStore({ mongoUrl, dbName, serverSelectionTimeoutMS: 5_000 });
    describeRepositoryContract(`MongoDB (${dbName})`, open, { openPeer: open });
    after(async function () {
      const client = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 5_000 });
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    });
  });
}
