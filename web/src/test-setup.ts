import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// The test DOMs (happy-dom, jsdom) lack these; Mantine reads them.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// `findBy…` and `waitFor` give up after 1 s by default. `npm test` runs these tests beside the
// typecheck, the lint and the browser tests on two cores, where a render that takes 50 ms alone took
// over a second and failed CI; they still end as soon as what they wait for shows.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
});
