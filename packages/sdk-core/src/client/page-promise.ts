/** The list shape every list operation answers with. */
export interface PageShape<T> {
  values: T[];
  total_count: number;
  next_page?: string | null | undefined;
}

/**
 * The answer of a list call: `await` it for the first page, or iterate it for every item across pages.
 *
 * @example
 * const first = await client.personas.list();
 * for await (const persona of client.personas.list()) console.log(persona.name);
 */
export class PagePromise<T> implements Promise<PageShape<T>>, AsyncIterable<T> {
  readonly [Symbol.toStringTag] = 'PagePromise';
  private first: Promise<PageShape<T>> | undefined;

  constructor(private readonly fetchPage: (page: string | undefined) => Promise<PageShape<T>>) {}

  private firstPage(): Promise<PageShape<T>> {
    this.first ??= this.fetchPage(undefined);
    return this.first;
  }

  then<A = PageShape<T>, B = never>(
    onFulfilled?: ((value: PageShape<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<PageShape<T> | B> {
    return this.firstPage().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<PageShape<T>> {
    return this.firstPage().finally(onFinally);
  }

  /** Every page, in order. */
  async *pages(): AsyncGenerator<PageShape<T>> {
    let page = await this.firstPage();
    yield page;
    while (page.next_page) {
      page = await this.fetchPage(page.next_page);
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.values;
  }

  /** Collects every item of every page. */
  async all(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
