import { ratingLabel, starFills, TESTIMONIAL_BLOCK, TESTIMONIALS, type Testimonial } from "~/content/testimonials";
import { deferred, KeptMarkup, StarIcon, TESTIMONIAL_CAROUSEL } from "~/components/shared";

/** The carousel's script (and its hydration) waits until a carousel comes near the screen. */
const Carousel = deferred(() => import("./carousel/Carousel").then((module) => module.Carousel));

export function StarRating({ stars, size = 18 }: { stars: number; size?: number }) {
  return (
    <span className="star-rating" role="img" aria-label={ratingLabel(stars)}>
      {starFills(stars).map((fill, index) => (
        <StarIcon key={index} filled={fill} size={size} />
      ))}
    </span>
  );
}

export function TestimonialCard({ testimonial }: { testimonial: Testimonial }) {
  return (
    <figure className="testimonial">
      <StarRating stars={testimonial.stars} />
      <blockquote className="testimonial__text">
        <p>{testimonial.text}</p>
      </blockquote>
      <figcaption className="testimonial__author">
        <strong>{testimonial.name}</strong>
        <span>
          {testimonial.city}, {testimonial.state}
        </span>
      </figcaption>
    </figure>
  );
}

/** The 20 reviews as an auto-playing carousel (3 / 2 / 1 per view, 4 s, dots, no arrows). */
export function TestimonialCarousel({ label = "Customer reviews" }: { label?: string }) {
  return (
    <Carousel
      {...TESTIMONIAL_CAROUSEL}
      className="testimonial-carousel"
      label={label}
      items={TESTIMONIALS.map((testimonial) => (
        <TestimonialCard key={testimonial.name} testimonial={testimonial} />
      ))}
    />
  );
}

/** The 8 static reviews as a grid (footer, landing page). */
export function TestimonialBlock({
  headingId,
  heading = "What our customers say",
  headingLevel = 2,
}: {
  headingId: string;
  heading?: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className="testimonial-block" aria-labelledby={headingId}>
      <Heading id={headingId} className="testimonial-block__heading">
        {heading}
      </Heading>
      <KeptMarkup as="ul" attributes={{ className: "testimonial-block__list" }} markupKey={() => "testimonial-block"}>
        <TestimonialBlockItems />
      </KeptMarkup>
    </section>
  );
}

function TestimonialBlockItems() {
  return TESTIMONIAL_BLOCK.map((testimonial) => (
    <li key={testimonial.name}>
      <TestimonialCard testimonial={testimonial} />
    </li>
  ));
}
