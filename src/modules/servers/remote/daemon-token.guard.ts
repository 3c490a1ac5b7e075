import { createHash, timingSafeEqual } from 'node:crypto';
import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { DaemonOnly } from 'src/common/auth/authenticated.decorator';
import { Clock } from 'src/common/clock';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';
import { headerOf, HttpRequest } from 'src/common/http/http';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { DaemonNodes } from 'src/modules/nodes/daemon-nodes';

const DaemonAuthError = {
  MISSING: {
    code: 'DAEMON_TOKEN_MISSING',
    category: ErrorCategory.UNAUTHENTICATED,
    message: 'Missing or invalid daemon authentication token',
  },
  FORBIDDEN: { code: 'DAEMON_TOKEN_INVALID', category: ErrorCategory.FORBIDDEN, message: 'You are not authorized to access this resource' },
} satisfies Record<string, ErrorDef>;

const DAEMON_BEARER = /^Bearer ([^.\s]+)\.(\S+)$/;
const LAST_SEEN_RESOLUTION_MS = 60_000;

type DaemonRequest = HttpRequest & { daemonNode?: NodeEntity };

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * `Authorization: Bearer <tokenIdentifier>.<token>` (docs/wings.md#authentication). A missing or
 * malformed header is 401; an unknown identifier or wrong token is 403. The token is compared in constant
 * time (as SHA-256 digests, so its length does not leak either).
 */
@Injectable()
export class DaemonTokenGuard implements CanActivate {
  constructor(
    private readonly nodes: DaemonNodes,
    private readonly daemon: DaemonGateway,
    private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<DaemonRequest>();
    const match = DAEMON_BEARER.exec(headerOf(req, 'authorization') ?? '');
    if (!match) {
      throw new AppException(DaemonAuthError.MISSING);
    }
    const [, identifier, presented] = match;
    const node = await this.nodes.byTokenIdentifier(identifier);
    // Unknown identifiers still cost a comparison, so timing does not tell them apart.
    const expected = node ? this.daemon.tokenOf(node) : 'x'.repeat(64);
    if (!timingSafeEqual(digest(presented), digest(expected)) || !node) {
      throw new AppException(DaemonAuthError.FORBIDDEN);
    }
    const now = this.clock.now();
    if (!node.lastSeenAt || now.getTime() - node.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
      await this.nodes.touch(node, now);
      node.lastSeenAt = now;
    }
    req.daemonNode = node;
    return true;
  }
}

/** A `/api/remote/**` route: the calling node authenticates, and errors carry Wings' `errors` array too. */
export const DaemonRoute = (): MethodDecorator & ClassDecorator =>
  applyDecorators(DaemonOnly(), UseGuards(DaemonTokenGuard));

export const CallingNode = createParamDecorator((_data: unknown, ctx: ExecutionContext): NodeEntity => {
  const node = ctx.switchToHttp().getRequest<DaemonRequest>().daemonNode;
  if (!node) {
    throw new Error('CallingNode used on a route without @DaemonRoute');
  }
  return node;
});
