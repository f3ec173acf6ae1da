import { SiteLink } from "~/components/shared";

/** A staff list's pager: Previous and Next links (when there is such a page) around "Page N"; nothing on a list of one page. */
export function StaffPager({
  page,
  hasMore,
  hrefFor,
  label,
}: {
  page: number;
  hasMore: boolean;
  hrefFor: (page: number) => string;
  label: string;
}) {
  if (page <= 1 && !hasMore) return null;
  return (
    <nav className="staff-pager" aria-label={label}>
      {page > 1 ? (
        <SiteLink to={hrefFor(page - 1)} rel="prev">
          ← Previous page
        </SiteLink>
      ) : (
        <span />
      )}
      <span>Page {page}</span>
      {hasMore ? (
        <SiteLink to={hrefFor(page + 1)} rel="next">
          Next page →
        </SiteLink>
      ) : (
        <span />
      )}
    </nav>
  );
}
