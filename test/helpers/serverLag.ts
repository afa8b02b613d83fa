/** The demo's server-lag measurement, for tests that check gaps from the servers' side. */
export { gaps, LOOPBACK_SLACK_MS, measureServerLag } from '../../src/demo/lag';
