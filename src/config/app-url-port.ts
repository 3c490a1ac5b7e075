import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfigService } from 'src/config/app-config.service';

/** Hosts that only this machine reaches: a panel on one of them is opened at that very address. */
const isLoopback = (hostname: string): boolean =>
  hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);

/**
 * The warning for an APP_URL on a loopback host whose port is not the one the panel listens on:
 * every browser write there is refused by the origin check (its Origin names the port actually
 * opened). Behind a proxy the two differ on purpose, so other hosts are left alone, as is PORT=0.
 */
export const appUrlPortWarning = (appUrl: string, port: number): string | undefined => {
  const url = new URL(appUrl);
  const appPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (port === 0 || appPort === port || !isLoopback(url.hostname)) {
    return undefined;
  }
  const opened = new URL(appUrl);
  opened.port = String(port);
  return (
    `APP_URL is ${url.origin} but the panel listens on port ${port}: a browser that opens ${opened.origin} ` +
    `cannot sign in (403 UNTRUSTED_ORIGIN). Set APP_URL=${opened.origin} (the address you open the panel at), or PORT=${appPort}.`
  );
};

/** Says at start, once, when APP_URL and PORT disagree on a loopback host (see appUrlPortWarning). */
@Injectable()
export class AppUrlPortCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('Config');

  constructor(private readonly config: AppConfigService) {}

  onApplicationBootstrap(): void {
    const warning = appUrlPortWarning(this.config.http.appUrl, this.config.http.port);
    if (warning) {
      this.logger.warn(warning);
    }
  }
}
