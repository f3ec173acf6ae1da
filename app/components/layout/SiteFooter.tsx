import { deferred, SERVICE_HOURS, telHref, PhoneIcon, POLICY_LINKS, SiteLink } from "~/components/shared";
import type { PublicConfig } from "~/public-config.server";

/** Below every page's fold: the reviews' and the signup form's script load when they come near the screen. */
const TestimonialBlock = deferred(() => import("../Testimonials").then((module) => module.TestimonialBlock));
const NewsletterSignup = deferred(() => import("../NewsletterSignup").then((module) => module.NewsletterSignup), {
  name: "newsletter-signup",
});

/**
 * Customer reviews (optional), mailing-list signup, talk to an expert, the
 * policy and contact links, social links and the copyright line.
 */
export function SiteFooter({ store, showTestimonials = true }: { store: PublicConfig; showTestimonials?: boolean }) {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container">
        {showTestimonials ? (
          <div className="site-footer__testimonials">
            <TestimonialBlock headingId="footer-testimonials-heading" />
          </div>
        ) : null}

        <div className="site-footer__grid">
          <NewsletterSignup />

          <section aria-labelledby="footer-expert-heading">
            <h2 id="footer-expert-heading" className="site-footer__heading">
              Talk to an expert
            </h2>
            <p>Not sure which grill, heater or layout fits? Our experts are glad to help.</p>
            <p>
              <a className="site-footer__phone" href={telHref(store.storePhone)}>
                <PhoneIcon />
                <span>
                  <span className="visually-hidden">Call </span>
                  {store.storePhone}
                </span>
              </a>
            </p>
            <p className="site-footer__hours">{SERVICE_HOURS}</p>
            <p>
              <SiteLink to="/contact">Send us a message</SiteLink>
            </p>
          </section>

          <nav aria-labelledby="footer-help-heading">
            <h2 id="footer-help-heading" className="site-footer__heading">
              Customer service
            </h2>
            <ul className="site-footer__links">
              {POLICY_LINKS.map((link) => (
                <li key={link.to}>
                  <SiteLink to={link.to}>{link.label}</SiteLink>
                </li>
              ))}
            </ul>
          </nav>

          <section aria-labelledby="footer-social-heading">
            <h2 id="footer-social-heading" className="site-footer__heading">
              Follow us
            </h2>
            <ul className="social-links">
              {SOCIAL_LINKS.map((social) => (
                <li key={social.name}>
                  <a
                    href={social.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${social.name} (opens in a new tab)`}
                    className="social-links__link"
                  >
                    <span className={`social-links__icon social-links__icon--${social.icon}`} aria-hidden="true" />
                  </a>
                </li>
              ))}
            </ul>
          </section>
        </div>

        <p className="site-footer__copyright">
          © {year} {store.storeName}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}

const SOCIAL_LINKS: ReadonlyArray<{ name: string; href: string; icon: string }> = [
  { name: "Facebook", href: "https://www.facebook.com/", icon: "facebook" },
  { name: "Instagram", href: "https://www.instagram.com/", icon: "instagram" },
  { name: "YouTube", href: "https://www.youtube.com/", icon: "youtube" },
  { name: "Pinterest", href: "https://www.pinterest.com/", icon: "pinterest" },
  { name: "X", href: "https://x.com/", icon: "x" },
];
