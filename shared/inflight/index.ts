export { InflightRegistry, PARSED_OUTPUTS_KEPT, type ChainView } from "./inflight-registry";
