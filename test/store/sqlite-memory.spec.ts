import { createStore } from "../../shared/store";
import { describeRepositoryContract } from "./repository.contract";

describeRepositoryContract("SQLite in memory", () => createStore({ inMemory: true }));
