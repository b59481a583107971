// How the scheduler's walks over many users are cut: users per page, and a time budget per run.

export interface PagingOptions {
  /** Users per page of the keyset walk (and per D1 batch). */
  pageSize?: number
  /** Wall-clock ms after which a run stops taking new pages; the next run carries on. */
  budgetMs?: number
  /** Platform followers per queued fan-out page; a smaller audience is reminded in the run. */
  fanOutPage?: number
}

export const DEFAULT_PAGE_SIZE = 1000
