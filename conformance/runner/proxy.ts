import http from 'node:http';
import { isIPv6, type Socket } from 'node:net';
import { RunnerError } from './errors.js';
import { UsageError } from './options.js';

/**
 * The proxy of the environment, as curl and most HTTP clients read it: `HTTPS_PROXY` for https
 * targets, `HTTP_PROXY` for http ones, `NO_PROXY` for the hosts to reach directly (lowercase names
 * win over uppercase). Read from the environment the runner is given, not from process.env, so a
 * test can set it for one run. The tunnel (CONNECT) is a few lines over node:http; a proxy agent
 * library would not hand the raw-head requests a plain socket to write on.
 */
export interface ProxySettings {
  https?: string;
  http?: string;
  noProxy?: string;
}

function pick(env: NodeJS.ProcessEnv, ...names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** A proxy URL as the variable gives it; without a scheme it is http://, as curl reads it. */
function proxyUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new UsageError(`${name} "${value}" is not a URL; give one such as http://proxy.example.com:3128`);
  }
  if (url.protocol !== 'http:') throw new UsageError(`${name} is a ${url.protocol.slice(0, -1)} proxy; the runner goes through an http:// proxy (CONNECT for https targets)`);
  return url.href;
}

export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  const https = pick(env, 'https_proxy', 'HTTPS_PROXY');
  const plain = pick(env, 'http_proxy', 'HTTP_PROXY');
  return {
    https: https && proxyUrl(https.name, https.value),
    http: plain && proxyUrl(plain.name, plain.value),
    noProxy: pick(env, 'no_proxy', 'NO_PROXY')?.value,
  };
}

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

/** Whether NO_PROXY sends `url` direct: `*`, a host, a domain and its subdomains (`.example.com` or `example.com`), an IP, each with an optional port. */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = bare(url.hostname);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      // `[::1]:8080`, `::1` (an IPv6 address without a port), `host:8080`, `host`.
      const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? (entry.split(':').length > 2 ? [entry, entry] : /^([^:]+)(?::(\d+))?$/.exec(entry));
      if (!m) return false;
      const name = bare(m[1]!).replace(/^\*?\./, '');
      if (m[2] && m[2] !== port) return false;
      return host === name || host.endsWith(`.${name}`);
    });
}

/** The proxy a request to `url` goes through, or undefined to go direct. */
export function proxyFor(url: URL, settings: ProxySettings): URL | undefined {
  const proxy = url.protocol === 'https:' ? settings.https : settings.http;
  return proxy && !bypassesProxy(url, settings.noProxy) ? new URL(proxy) : undefined;
}

/** The proxy's URL without its credentials, for reports and replays. */
export function shownProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** `Proxy-Authorization` from the proxy URL's user and password, when it has them. */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** Opens a tunnel to host:port through the proxy (RFC 9110 §9.3.6) and gives back its socket. */
export function tunnel(proxy: URL, host: string, port: number, timeoutMs: number): Promise<Socket> {
  const authority = `${isIPv6(host) ? `[${host}]` : host}:${port}`;
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: bare(proxy.hostname),
      port: Number(proxy.port || 80),
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...proxyAuthorization(proxy) },
      agent: false,
      timeout: timeoutMs,
    });
    req.once('connect', (res, socket, head) => {
      socket.setTimeout(0);
      if (res.statusCode !== 200) {
        socket.destroy();
        reject(new RunnerError('network', `the proxy ${shownProxy(proxy)} refused a tunnel to ${authority}: ${res.statusCode} ${res.statusMessage ?? ''}`.trim()));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    req.once('timeout', () => {
      req.destroy();
      reject(new RunnerError('timeout', `the proxy ${shownProxy(proxy)} opened no tunnel to ${authority} within ${timeoutMs} ms`));
    });
    req.once('error', (e: NodeJS.ErrnoException) => reject(new RunnerError('network', `the proxy ${shownProxy(proxy)} failed: ${e.code ?? e.message}`)));
    req.end();
  });
}
