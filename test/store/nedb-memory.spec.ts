import { createStore } from "../../shared/store";
import { describeRepositoryContract } from "./repository.contract";

describeRepositoryContract("NeDB in memory", () => createStore({ inMemory: true, engine: "nedb" }));
