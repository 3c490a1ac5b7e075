import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const WebhookError = {
  NOT_FOUND: { code: 'WEBHOOK_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Webhook not found' },
  /** An event a server's webhook cannot hear (node and user events are an administrator's). */
  EVENT_NOT_ALLOWED: { code: 'WEBHOOK_EVENT_NOT_ALLOWED', category: ErrorCategory.BAD_REQUEST, message: 'This webhook cannot subscribe to these events' },
  TOO_MANY: { code: 'WEBHOOK_LIMIT_REACHED', category: ErrorCategory.CONFLICT, message: 'No more webhooks can be added here' },
} satisfies Record<string, ErrorDef>;
