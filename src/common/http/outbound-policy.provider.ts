import { Provider } from '@nestjs/common';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { AppConfigService } from 'src/config/app-config.service';

/** The OutboundPolicy of the configuration: public addresses only, unless OUTBOUND_ALLOW_PRIVATE (never in production). */
export const outboundPolicyProvider: Provider = {
  provide: OutboundPolicy,
  useFactory: (config: AppConfigService) => new OutboundPolicy(config.outbound.allowPrivate),
  inject: [AppConfigService],
};
