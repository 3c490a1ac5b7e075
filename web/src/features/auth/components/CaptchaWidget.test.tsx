// @vitest-environment jsdom
// jsdom, not happy-dom: these tests add the providers' <script> elements and fire their load and error
// events by hand, which happy-dom's own handling of <script src> gets in the way of (three tests failed).
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onloadCallbackName, type WidgetApi, type WidgetOptions } from '@/features/auth/captcha';
import { CaptchaWidget, type CaptchaControl } from '@/features/auth/components/CaptchaWidget';
import { renderWithProviders } from '@/test-utils';

// jsdom fetches no scripts: each test plays the provider's part on the <script> the widget adds.
const scriptOf = (prefix: string): HTMLScriptElement => {
  const script = document.head.querySelector<HTMLScriptElement>(`script[src^="${prefix}"]`);
  expect(script, `a <script> from ${prefix}`).not.toBeNull();
  return script!;
};

/** A checkbox widget API that records what the page asked of it. */
const fakeWidgetApi = () => {
  const rendered: { container: HTMLElement; options: WidgetOptions }[] = [];
  const api: WidgetApi & { rendered: typeof rendered } = {
    rendered,
    render: vi.fn((container: HTMLElement, options: WidgetOptions) => {
      rendered.push({ container, options });
      return `widget-${rendered.length}`;
    }),
    reset: vi.fn(),
    remove: vi.fn(),
  };
  return api;
};

afterEach(() => {
  delete window.turnstile;
  delete window.hcaptcha;
  delete window.grecaptcha;
});

describe('CaptchaWidget', () => {
  it('should draw nothing and hand out no token when the panel has no CAPTCHA', async () => {
    const ref = createRef<CaptchaControl>();
    const { container } = renderWithProviders(<CaptchaWidget settings={null} action="sign_in" ref={ref} />);
    expect(container.querySelector('[data-captcha]')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(await ref.current!.token()).toBeUndefined();
  });

  it('should say so with a retry when the Turnstile script cannot load, then render the widget once it does', async () => {
    const ref = createRef<CaptchaControl>();
    renderWithProviders(<CaptchaWidget settings={{ provider: 'turnstile', siteKey: 'site-key-t' }} action="sign_in" ref={ref} />);
    const first = scriptOf('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit');
    act(() => void first.dispatchEvent(new Event('error')));
    expect(await screen.findByRole('alert')).toHaveTextContent('The CAPTCHA could not be loaded');
    expect(first.isConnected).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const second = scriptOf('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit');
    const turnstile = fakeWidgetApi();
    window.turnstile = turnstile;
    act(() => window[onloadCallbackName('turnstile')]!());
    await waitFor(() => expect(turnstile.render).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(second.isConnected).toBe(true);
    const { container, options } = turnstile.rendered[0];
    expect(container.dataset.captcha).toBe('turnstile');
    expect(options).toMatchObject({ sitekey: 'site-key-t', action: 'sign_in', theme: 'light' });

    // Unsolved: no token. Solved: the widget's. Expired: none again.
    expect(await ref.current!.token()).toBeUndefined();
    act(() => options.callback('token-1'));
    expect(await ref.current!.token()).toBe('token-1');
    act(() => options['expired-callback']());
    expect(await ref.current!.token()).toBeUndefined();

    // A failed attempt spends the token: reset clears it and resets the provider's widget.
    act(() => options.callback('token-2'));
    act(() => ref.current!.reset());
    expect(turnstile.reset).toHaveBeenCalledWith('widget-1');
    expect(await ref.current!.token()).toBeUndefined();

    // The widget's own error: handled (Turnstile would throw otherwise) and told.
    act(() => void expect(options['error-callback']()).toBe(true));
    expect(await screen.findByRole('status')).toHaveTextContent('The CAPTCHA ran into a problem');
  });

  it('should render hCaptcha with its own script, reuse that script for a second widget, and remove both widgets when they go', async () => {
    const one = createRef<CaptchaControl>();
    const two = createRef<CaptchaControl>();
    const first = renderWithProviders(<CaptchaWidget settings={{ provider: 'hcaptcha', siteKey: 'site-key-h' }} action="forget_password" ref={one} />);
    const hcaptcha = fakeWidgetApi();
    window.hcaptcha = hcaptcha;
    expect(scriptOf('https://js.hcaptcha.com/1/api.js').src).toContain('render=explicit');
    act(() => window[onloadCallbackName('hcaptcha')]!());
    await waitFor(() => expect(hcaptcha.render).toHaveBeenCalledTimes(1));
    expect(hcaptcha.rendered[0].options.sitekey).toBe('site-key-h');

    const second = renderWithProviders(<CaptchaWidget settings={{ provider: 'hcaptcha', siteKey: 'site-key-h' }} action="sign_in" ref={two} />);
    await waitFor(() => expect(hcaptcha.render).toHaveBeenCalledTimes(2));
    expect(document.head.querySelectorAll('script[src^="https://js.hcaptcha.com/"]')).toHaveLength(1);

    act(() => hcaptcha.rendered[1].options.callback('h-token'));
    expect(await two.current!.token()).toBe('h-token');
    expect(await one.current!.token()).toBeUndefined();

    first.unmount();
    second.unmount();
    expect(hcaptcha.remove).toHaveBeenCalledWith('widget-1');
    expect(hcaptcha.remove).toHaveBeenCalledWith('widget-2');
  });

  it('should ask reCAPTCHA v3 for a fresh token with the site key and the action at each submit, with no widget of its own', async () => {
    const ref = createRef<CaptchaControl>();
    const { container } = renderWithProviders(<CaptchaWidget settings={{ provider: 'recaptcha', siteKey: 'site-key-r' }} action="forget_password" ref={ref} />);
    const script = scriptOf('https://www.google.com/recaptcha/api.js?render=site-key-r');
    let n = 0;
    const execute = vi.fn(() => Promise.resolve(`r-token-${++n}`));
    window.grecaptcha = { ready: (callback) => callback(), execute };
    // Before the script is ready there is no token to give.
    expect(await ref.current!.token()).toBeUndefined();
    act(() => void script.dispatchEvent(new Event('load')));
    await waitFor(async () => expect(await ref.current!.token()).toBe('r-token-1'));
    expect(execute).toHaveBeenLastCalledWith('site-key-r', { action: 'forget_password' });
    ref.current!.reset();
    expect(await ref.current!.token()).toBe('r-token-2');
    expect(container.querySelector('[data-captcha]')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('should say so when the reCAPTCHA script loads without its API', async () => {
    const ref = createRef<CaptchaControl>();
    renderWithProviders(<CaptchaWidget settings={{ provider: 'recaptcha', siteKey: 'site-key-broken' }} action="sign_in" ref={ref} />);
    act(() => void scriptOf('https://www.google.com/recaptcha/api.js?render=site-key-broken').dispatchEvent(new Event('load')));
    expect(await screen.findByRole('alert')).toHaveTextContent('The CAPTCHA could not be loaded');
    expect(await ref.current!.token()).toBeUndefined();
  });
});
