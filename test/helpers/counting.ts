// A binding with every method call counted, for the tests and the bench that measure what a
// request costs (KV calls of a public read): the real binding answers, the wrapper only counts.

/** `target` as it is, with `onCall(method, args)` told of each method call before it runs. */
export function countingCalls<T extends object>(
  target: T,
  onCall: (method: string, args: unknown[]) => void,
): T {
  return new Proxy(target, {
    get(object, prop) {
      const value = Reflect.get(object, prop)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        onCall(String(prop), args)
        return value.apply(object, args)
      }
    },
  })
}
