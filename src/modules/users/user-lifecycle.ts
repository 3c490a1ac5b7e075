import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * What a module keeping rows per user does when something happens to the user, inside the
 * transaction that makes it happen (`manager`), so that both are one step.
 */
interface UserLifecycleHandlers {
  /** A new password hash was written: what the old password opened (reset links, two-factor steps) is void. */
  passwordChanged?: (manager: EntityManager, userId: string) => Promise<unknown>;
  /** The user's sign-ins end (a new password, a suspension): every session but `keepSessionId`. */
  signInsEnded?: (manager: EntityManager, userId: string, keepSessionId?: string) => Promise<unknown>;
}

/**
 * Tells the modules that keep rows per user (sessions, password reset, two-factor) what happened to
 * a user, so that the users module never reaches into their tables and they never into its own.
 * Each registers its handlers once, from its module's onModuleInit; they run in registration order.
 */
@Injectable()
export class UserLifecycle {
  private readonly handlers: UserLifecycleHandlers[] = [];

  on(handlers: UserLifecycleHandlers): void {
    this.handlers.push(handlers);
  }

  async passwordChanged(manager: EntityManager, userId: string): Promise<void> {
    for (const h of this.handlers) {
      await h.passwordChanged?.(manager, userId);
    }
  }

  async signInsEnded(manager: EntityManager, userId: string, keepSessionId?: string): Promise<void> {
    for (const h of this.handlers) {
      await h.signInsEnded?.(manager, userId, keepSessionId);
    }
  }
}
