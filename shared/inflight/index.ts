export { InflightRegistry, type ClaimResult } from "./inflight-registry";
