export { InflightRegistry, type ChainView } from "./inflight-registry";
