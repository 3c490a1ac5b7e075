import { Injectable, Logger } from '@nestjs/common';
import { Dispatcher, request } from 'undici';
import { AppException } from 'src/common/errors/app.exception';
import { AppConfigService, CaptchaConfig } from 'src/config/app-config.service';
import { CaptchaError } from 'src/modules/captcha/captcha.errors';

/** No siteverify answer is anywhere near this; a larger one is not a provider talking. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** Longer than any provider's token (Turnstile documents 2048 characters). */
const MAX_TOKEN_LENGTH = 4096;

/**
 * Error codes that blame the panel's request or the provider, not the visitor's token: the secret key
 * is wrong or missing, the request was malformed, or the provider failed inside. They fail closed as
 * "unavailable" and are logged as an operator problem, instead of telling every visitor they failed.
 */
const NOT_THE_VISITORS_FAULT = new Set(['missing-input-secret', 'invalid-input-secret', 'sitekey-secret-mismatch', 'bad-request', 'internal-error']);

interface SiteverifyAnswer {
  success: boolean;
  'error-codes'?: unknown;
  score?: unknown;
}

class Unavailable extends Error {}

/**
 * Checks a CAPTCHA token with the configured provider's siteverify endpoint: Turnstile, hCaptcha and
 * reCAPTCHA v3 all take a form-encoded `secret`, `response` and `remoteip` and answer `{success, ...}`;
 * reCAPTCHA v3 adds a `score` that must reach CAPTCHA_MIN_SCORE.
 *
 * The URL is the operator's configuration, not user input, so it is called directly (no public-address
 * policy): an operator may route it through an internal proxy, and tests point it at a local fake.
 */
@Injectable()
export class CaptchaVerifier {
  private readonly logger = new Logger(CaptchaVerifier.name);

  constructor(private readonly config: AppConfigService) {}

  /** Resolves when the token passes; throws CAPTCHA_INVALID (403) or CAPTCHA_UNAVAILABLE (503). */
  async verify(token: string, remoteIp: string | undefined): Promise<void> {
    const captcha = this.config.captcha;
    if (!captcha) {
      return;
    }
    if (token.length > MAX_TOKEN_LENGTH) {
      throw new AppException(CaptchaError.INVALID);
    }
    let answer: SiteverifyAnswer;
    try {
      answer = await this.ask(captcha, token, remoteIp);
    } catch (e) {
      const reason = e instanceof Unavailable ? e.message : describeTransportError(e);
      this.logger.warn({ provider: captcha.provider, reason }, 'CAPTCHA provider unavailable; refusing the request');
      throw new AppException(CaptchaError.UNAVAILABLE);
    }
    this.judge(captcha, answer);
  }

  private async ask(captcha: CaptchaConfig, token: string, remoteIp: string | undefined): Promise<SiteverifyAnswer> {
    const form = new URLSearchParams({ secret: captcha.secretKey, response: token });
    if (remoteIp) {
      form.set('remoteip', remoteIp);
    }
    const res = await request(captcha.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': 'Hatchery' },
      body: form.toString(),
      headersTimeout: captcha.timeoutMs,
      bodyTimeout: captcha.timeoutMs,
      signal: AbortSignal.timeout(captcha.timeoutMs),
    });
    const text = await readCapped(res.body);
    if (res.statusCode !== 200) {
      throw new Unavailable(`the provider answered HTTP ${res.statusCode}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Unavailable('the provider answered with something other than JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || typeof (parsed as SiteverifyAnswer).success !== 'boolean') {
      throw new Unavailable('the provider answered without a boolean "success"');
    }
    return parsed as SiteverifyAnswer;
  }

  private judge(captcha: CaptchaConfig, answer: SiteverifyAnswer): void {
    const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'].filter((c): c is string => typeof c === 'string') : [];
    if (!answer.success) {
      const blamed = codes.filter((c) => NOT_THE_VISITORS_FAULT.has(c));
      if (blamed.length > 0) {
        this.logger.error(
          { provider: captcha.provider, errorCodes: blamed },
          'The CAPTCHA provider refused the panel verification request: check CAPTCHA_SECRET_KEY and CAPTCHA_PROVIDER',
        );
        throw new AppException(CaptchaError.UNAVAILABLE);
      }
      throw new AppException(CaptchaError.INVALID);
    }
    if (captcha.provider === 'recaptcha') {
      if (typeof answer.score !== 'number') {
        // A v2 key answers without a score; passing it would skip the check the operator asked for.
        this.logger.error({ provider: captcha.provider }, 'reCAPTCHA answered without a score: CAPTCHA_SECRET_KEY must be a reCAPTCHA v3 key');
        throw new AppException(CaptchaError.UNAVAILABLE);
      }
      if (answer.score < captcha.minScore) {
        throw new AppException(CaptchaError.INVALID);
      }
    }
  }
}

const readCapped = async (body: Dispatcher.ResponseData['body']): Promise<string> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      throw new Unavailable(`the provider's answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** A short, secret-free reason for the log: the error's code or name, never the request. */
const describeTransportError = (e: unknown): string => {
  const err = e as { code?: unknown; name?: unknown; cause?: { code?: unknown } } | null;
  const code = err?.code ?? err?.cause?.code;
  if (typeof code === 'string') {
    return code;
  }
  return typeof err?.name === 'string' ? err.name : 'unknown error';
};
