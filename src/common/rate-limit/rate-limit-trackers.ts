import { Injectable } from '@nestjs/common';
import type { HttpRequest } from 'src/common/http/http';

/**
 * Who a request counts against, for credentials AuthService does not know (the Pterodactyl layer's
 * keys): a tracker answers `null` when the request does not carry its kind of credential or the
 * credential does not verify (then the request counts by address, as any failed credential does).
 */
export type RateLimitTracker = (req: HttpRequest) => Promise<string | null>;

/** Trackers that feature modules register, consulted by RateLimitGuard before AuthService. */
@Injectable()
export class RateLimitTrackers {
  private readonly trackers: RateLimitTracker[] = [];

  register(tracker: RateLimitTracker): void {
    this.trackers.push(tracker);
  }

  async trackerOf(req: HttpRequest): Promise<string | null> {
    for (const tracker of this.trackers) {
      const found = await tracker(req);
      if (found !== null) {
        return found;
      }
    }
    return null;
  }
}
