/**
 * A stand-in for a dependency of type `T` that has only the members a test gives it. Using any other
 * member throws an error naming it (`servers.findById is not mocked`), so a call the test did not
 * expect fails the test instead of quietly returning undefined.
 *
 * `name` is how the error names the dependency. Member names are checked against `T`; their values
 * are not, so a test can give a `jest.fn()` or a partial object.
 */
export const strictMock = <T extends object>(name: string, members: { [K in keyof T]?: unknown } = {}): T =>
  new Proxy<Record<string | symbol, unknown>>(members, {
    get: (target, prop) => {
      if (prop in target) {
        return target[prop];
      }
      // `await` and Promise resolution probe `then`, and printing a value reads well-known symbols:
      // neither is the code under test using the dependency.
      if (prop === 'then' || typeof prop === 'symbol') {
        return undefined;
      }
      throw new Error(`${name}.${prop} is not mocked: the code under test used a member this test did not expect`);
    },
  }) as unknown as T;
