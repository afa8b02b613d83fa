// Loaded with `node --import` into every Node crawler the bench runs (ours, Crawlee). The bench's hosts
// have names (`m01.localhost`) so that crawlers which key politeness on host names see one host per
// server; this answers those names from the table in CRAWL_BENCH_RESOLVE (JSON: name → 127.0.0.x), as
// /etc/hosts would, and refuses every other name that is not an IP literal or `localhost`, so that no DNS
// query leaves the machine. The Python twin is bench/peers/scrapy/run_scrapy.py; the variable's name is
// set in bench/lib/peers.ts.
import dns from 'node:dns';
import net from 'node:net';

const table = JSON.parse(process.env.CRAWL_BENCH_RESOLVE ?? '{}');
const original = dns.lookup;
const originalPromise = dns.promises.lookup;

function answer(hostname) {
  const name = String(hostname).toLowerCase();
  if (Object.hasOwn(table, name)) return { address: table[name], family: 4 };
  if (net.isIP(name) !== 0 || name === 'localhost') return undefined; // the system's answer
  const err = new Error(`getaddrinfo ENOTFOUND ${hostname} (the bench resolves only its own host names)`);
  err.code = 'ENOTFOUND';
  err.hostname = hostname;
  return err;
}

dns.lookup = function lookup(hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  const opts = typeof options === 'function' ? {} : typeof options === 'number' ? { family: options } : (options ?? {});
  const found = answer(hostname);
  if (found === undefined) return original.call(dns, hostname, opts, cb);
  if (found instanceof Error) return void process.nextTick(cb, found);
  if (opts.all) process.nextTick(cb, null, [found]);
  else process.nextTick(cb, null, found.address, found.family);
};

dns.promises.lookup = async function lookup(hostname, options) {
  const found = answer(hostname);
  if (found === undefined) return originalPromise.call(dns.promises, hostname, options);
  if (found instanceof Error) throw found;
  return options?.all ? [found] : found;
};
