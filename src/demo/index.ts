/** The built-in demo hosts: loopback web hosts that exercise and verify a polite crawl. */
export {
  defaultDemoConfig,
  DEMO_FIRST_ADDRESS,
  DEMO_SERVE_PORT,
  demoServeHosts,
  type BigPageConfig,
  type DemoAddressing,
  type DemoConfig,
  type DemoHostConfig,
  type LatencyConfig,
  type LinkGraphConfig,
  type RetryAfterForm,
  type RobotsTxtConfig,
  type TooManyRequestsConfig,
  type UnavailableConfig,
} from './config';
export { startDemoHosts, retryAfterValue, type DemoArrival, type DemoHostInfo, type DemoHosts } from './hosts';
export { formatDemoHosts } from './serve';
