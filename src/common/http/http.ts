import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The request and reply every route, guard and filter sees (the HTTP layer is Fastify). */
export type HttpRequest = FastifyRequest;
export type HttpReply = FastifyReply;

/** A request header's value; the first one when it was sent more than once. */
export const headerOf = (req: { headers: IncomingHttpHeaders }, name: string): string | undefined => {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/** The request's path, without the query string. */
export const pathOf = (req: { url: string }): string => {
  const q = req.url.indexOf('?');
  return q === -1 ? req.url : req.url.slice(0, q);
};
