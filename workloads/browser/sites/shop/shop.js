// The little shop's shared code: real work on the main thread, as such sites have it. `work(ms)`
// stands for what a framework or a sort would do: it holds the thread for about `ms`.
export function work(ms) {
  const start = performance.now();
  let x = 0;
  while (performance.now() - start < ms) x += Math.sqrt(x + 1);
  return x;
}

export const products = Array.from({ length: 400 }, (_, i) => ({ id: i + 1, name: `Item ${i + 1}`,
                                                             price: 5 + ((i * 37) % 95) }));

export function cart() {
  return JSON.parse(sessionStorage.getItem("cart") ?? "[]");
}

export function addToCart(id) {
  sessionStorage.setItem("cart", JSON.stringify([...cart(), id]));
}
