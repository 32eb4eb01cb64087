import { buildSchema, type GraphQLSchema } from 'graphql';

// The embedded sample API: a small library with related types, a query with arguments, a list, a union,
// a mutation, deprecated fields, a deprecated argument and an enum. Each instance keeps its own data.

const SDL = /* GraphQL */ `
  "A book genre."
  enum Genre {
    FICTION
    SCIENCE
    HISTORY
    "Merged into FICTION."
    POETRY @deprecated(reason: "Use FICTION.")
  }

  "Someone who wrote books."
  type Author {
    id: ID!
    name: String!
    "Year of birth."
    born: Int
    books: [Book!]!
  }

  "A book in the library."
  type Book {
    id: ID!
    title: String!
    genre: Genre!
    year: Int!
    author: Author!
    reviews: [Review!]!
    "Ten-digit ISBN."
    isbn: String @deprecated(reason: "Use isbn13.")
    "Thirteen-digit ISBN."
    isbn13: String!
  }

  "A reader's review of a book."
  type Review {
    id: ID!
    rating: Int!
    text: String
    book: Book!
  }

  "Anything a search can find."
  union SearchResult = Book | Author

  type Query {
    "One book by id."
    book(id: ID!): Book
    "Books, optionally of one genre, newest first."
    books(genre: Genre, first: Int = 10, limit: Int @deprecated(reason: "Use first.")): [Book!]!
    "All authors."
    authors: [Author!]!
    "Books and authors whose title or name contains the term."
    search(term: String!): [SearchResult!]!
  }

  type Mutation {
    "Adds a review (rating 1 to 5) to a book."
    addReview(bookId: ID!, rating: Int!, text: String): Review!
  }
`;

interface AuthorRow {
  id: string;
  name: string;
  born: number;
}
interface BookRow {
  id: string;
  title: string;
  genre: string;
  year: number;
  authorId: string;
  isbn13: string;
}
interface ReviewRow {
  id: string;
  rating: number;
  text: string | null;
  bookId: string;
}

/** A fresh instance of the library API: its schema and a root value holding its own data. */
export function createLibraryApi(): { schema: GraphQLSchema; rootValue: Record<string, unknown> } {
  const authors: AuthorRow[] = [
    { id: 'a1', name: 'Ursula K. Le Guin', born: 1929 },
    { id: 'a2', name: 'Carl Sagan', born: 1934 },
    { id: 'a3', name: 'Mary Beard', born: 1955 },
  ];
  const books: BookRow[] = [
    {
      id: 'b1',
      title: 'A Wizard of Earthsea',
      genre: 'FICTION',
      year: 1968,
      authorId: 'a1',
      isbn13: '9780547773742',
    },
    {
      id: 'b2',
      title: 'The Left Hand of Darkness',
      genre: 'FICTION',
      year: 1969,
      authorId: 'a1',
      isbn13: '9780441478125',
    },
    { id: 'b3', title: 'Cosmos', genre: 'SCIENCE', year: 1980, authorId: 'a2', isbn13: '9780345539434' },
    { id: 'b4', title: 'SPQR', genre: 'HISTORY', year: 2015, authorId: 'a3', isbn13: '9781631492228' },
  ];
  const reviews: ReviewRow[] = [{ id: 'r1', rating: 5, text: 'Timeless.', bookId: 'b1' }];

  const author = (row: AuthorRow) => ({
    __typename: 'Author',
    ...row,
    books: () => books.filter((b) => b.authorId === row.id).map(book),
  });
  const book = (row: BookRow): Record<string, unknown> => ({
    __typename: 'Book',
    ...row,
    isbn: row.isbn13.slice(3),
    author: () => author(authors.find((a) => a.id === row.authorId)!),
    reviews: () => reviews.filter((r) => r.bookId === row.id).map(review),
  });
  const review = (row: ReviewRow) => ({ ...row, book: () => book(books.find((b) => b.id === row.bookId)!) });

  const rootValue = {
    book: ({ id }: { id: string }) => {
      const row = books.find((b) => b.id === id);
      return row ? book(row) : null;
    },
    books: ({ genre, first, limit }: { genre?: string; first?: number; limit?: number }) =>
      books
        .filter((b) => genre === undefined || b.genre === genre)
        .sort((a, b) => b.year - a.year)
        .slice(0, limit ?? first ?? 10)
        .map(book),
    authors: () => authors.map(author),
    search: ({ term }: { term: string }) => {
      const t = term.toLowerCase();
      return [
        ...books.filter((b) => b.title.toLowerCase().includes(t)).map(book),
        ...authors.filter((a) => a.name.toLowerCase().includes(t)).map(author),
      ];
    },
    addReview: ({ bookId, rating, text }: { bookId: string; rating: number; text?: string }) => {
      if (!books.some((b) => b.id === bookId)) throw new Error(`No book has the id "${bookId}".`);
      if (rating < 1 || rating > 5) throw new Error('A rating is from 1 to 5.');
      const row = { id: `r${reviews.length + 1}`, rating, text: text ?? null, bookId };
      reviews.push(row);
      return review(row);
    },
  };
  return { schema: buildSchema(SDL), rootValue };
}
