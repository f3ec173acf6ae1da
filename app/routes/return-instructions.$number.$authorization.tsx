import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDate } from "~/components/shared";
import { SHIP_WITHIN_DAYS } from "~/returns/desk-emails.server";
import type { RouteHandle } from "~/root";
import { returnInstructions } from "~/staff/returns-desk.server";

/** One customer's return: never cached (utils/cache-control.server.ts). */
export const handle: RouteHandle = { personal: true, indexing: "noindex, nofollow" };

export const meta: MetaFunction = () => [{ title: "Return instructions" }];

/**
 * The printable return instructions an approved return's email links to when the store bought no
 * label: keyed by the request's number and its authorization number, which only that email carries.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const instructions = await returnInstructions(context.store.db, context.store.config, params.number ?? "", params.authorization ?? "");
  if (!instructions) throw new Response("These return instructions were not found. Please use the link in your email.", { status: 404 });
  return data({ instructions, shipWithinDays: SHIP_WITHIN_DAYS });
}

export default function ReturnInstructionsPage() {
  const { instructions, shipWithinDays } = useLoaderData<typeof loader>();
  const { number, authorizationNumber, orderId, decidedAt, lines, returnAddress } = instructions;
  return (
    <main id="main" className="content-page">
      <h1>Return instructions</h1>
      <p>
        Return <strong>{number}</strong> for order <strong>{orderId}</strong>
        {decidedAt ? <>, approved on {formatDate(decidedAt)}</> : null}.
      </p>
      <p className="return-authorization" data-testid="return-authorization">
        Return authorization: <strong>{authorizationNumber}</strong>
      </p>
      <ol>
        <li>Pack the items below in their original packaging, new and unused.</li>
        <li>
          Write <strong>{authorizationNumber}</strong> clearly on the outside of the box, and put a printed copy of this page inside.
        </li>
        <li>
          Ship the parcel within {shipWithinDays} days of approval, with the carrier of your choice, to the address below. Keep its tracking
          number.
        </li>
      </ol>
      <h2>Items to return</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Model</th>
            <th scope="col">Quantity</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => (
            <tr key={index}>
              <th scope="row">{line.title}</th>
              <td>{line.model}</td>
              <td>{line.quantity}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Ship to</h2>
      <address data-testid="return-address">
        {returnAddress.map((line) => (
          <div key={line}>{line}</div>
        ))}
      </address>
      <p>
        Returns sent without this authorization number are not refunded. Once we receive the items, we refund them less the cost of shipping
        both ways.
      </p>
    </main>
  );
}
