import type { Actor } from 'src/common/auth/current-actor.decorator';
import type { ServerActivityEntity } from 'src/modules/servers/server-activity.entity';

/** A server activity entry for something a signed-in user (or their API key) did. */
export const actorActivity = (
  serverId: string,
  actor: Actor,
  event: string,
  metadata: Record<string, unknown>,
  at: Date,
): Partial<ServerActivityEntity> => ({
  serverId,
  actorId: actor.userId,
  actorUsername: actor.username,
  event,
  metadata,
  ip: actor.ip,
  via: actor.via.slice(0, 32),
  createdAt: at,
});
