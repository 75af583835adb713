/**
 * The challenge message of the two-step user action flow (docs/decisions.md#user-action-message):
 * `[<ACTION>[:<stateId>]@<timestampMs>] Please sign this message with your private key to verify, that you are the owner of the address <address>.`
 */
export const USER_ACTIONS = ["USER_INFO", "INVALIDATE_STATE", "OPT_OUT"] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

export function userActionMessage(input: { action: string; stateId?: string; timestamp: number; address: string }): string {
  const scope = input.stateId ? `${input.action}:${input.stateId}` : input.action;
  return `[${scope}@${input.timestamp}] Please sign this message with your private key to verify, that you are the owner of the address ${input.address}.`;
}

const MESSAGE_PATTERN =
  /^\[([A-Z_]+)(?::([0-9a-fA-F]+))?@(\d+)\] Please sign this message with your private key to verify, that you are the owner of the address (\S+)\.$/;

/** Parses a message built by userActionMessage; undefined when it does not have that exact form. */
export function parseUserActionMessage(
  message: string,
): { action: string; stateId?: string; timestamp: number; address: string } | undefined {
  const m = MESSAGE_PATTERN.exec(message);
  if (!m) return undefined;
  const [, action, stateId, timestamp, address] = m;
  return { action: action!, ...(stateId ? { stateId } : {}), timestamp: Number(timestamp), address: address! };
}

/** ±10 minutes, as in docs/decisions.md#user-action-verification. */
export const USER_ACTION_WINDOW_MS = 10 * 60 * 1000;

export function isWithinWindow(timestamp: number, now: number): boolean {
  return Math.abs(now - timestamp) <= USER_ACTION_WINDOW_MS;
}
