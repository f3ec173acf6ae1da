import { Link } from "@remix-run/react";

export default function Home() {
  return (
    <section className="container">
      <h1>Grills, outdoor kitchens and outdoor heating</h1>
      <p>
        <Link className="button button--primary" to="/products/all/all">
          Shop All
        </Link>
      </p>
    </section>
  );
}
