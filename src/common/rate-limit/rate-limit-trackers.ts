import { Injectable } from '@nestjs/common';
import type { HttpRequest } from 'src/common/http/http';

/** A credential that verified: the tracker it counts under, and the account it belongs to. */
export interface TrackedCredential {
  tracker: string;
  userId: string;
}

/**
 * Who a request counts against, for credentials AuthService does not know (the Pterodactyl layer's
 * keys): a tracker answers `null` when the request does not carry its kind of credential or the
 * credential does not verify (then the request counts by address, as any failed credential does).
 */
type RateLimitTracker = (req: HttpRequest) => Promise<TrackedCredential | null>;

/** Trackers that feature modules register, consulted by RateLimitGuard before AuthService. */
@Injectable()
export class RateLimitTrackers {
  private readonly trackers: RateLimitTracker[] = [];

  register(tracker: RateLimitTracker): void {
    this.trackers.push(tracker);
  }

  async credentialOf(req: HttpRequest): Promise<TrackedCredential | null> {
    for (const tracker of this.trackers) {
      const found = await tracker(req);
      if (found !== null) {
        return found;
      }
    }
    return null;
  }
}
