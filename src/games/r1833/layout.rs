//! Route layouts (Creating/Extending Routes ¶3-¶4): the cards of a route lie on the table with
//! edges touching exactly where a connection is shown. The engine models the table as a square
//! grid (RULING C2): a layout is legal when its cards can be placed on distinct grid cells so
//! that two cards share an edge if and only if the layout links them. This allows straight
//! lines, branches (a card with three or four connections) and loops of four or more cards, and
//! forbids what cannot be shown unambiguously (a triangle, a card with five connections).

/// Most nodes the bit-set versions below handle (a route has far fewer cards).
const SMALL: usize = 32;

/// Adjacency as bit sets, links with an end out of range left out.
fn bit_adj(n: usize, links: &[(usize, usize)]) -> [u32; SMALL] {
    let mut adj = [0u32; SMALL];
    for &(a, b) in links {
        if a < n && b < n {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
    }
    adj
}

/// Whether the graph on `n` nodes with these undirected links is connected.
pub fn connected(n: usize, links: &[(usize, usize)]) -> bool {
    if n == 0 {
        return false;
    }
    if n <= SMALL {
        let adj = bit_adj(n, links);
        let all = if n == SMALL { u32::MAX } else { (1u32 << n) - 1 };
        let mut seen = 1u32;
        loop {
            let next = (0..n).filter(|i| seen & (1 << i) != 0).fold(seen, |m, i| m | adj[i]);
            if next == seen {
                return seen == all;
            }
            seen = next;
        }
    }
    connected_general(n, links)
}

/// [`connected`] for a graph of any size.
fn connected_general(n: usize, links: &[(usize, usize)]) -> bool {
    if n == 0 {
        return false;
    }
    let mut seen = vec![false; n];
    let mut stack = vec![0usize];
    if let Some(s) = seen.get_mut(0) {
        *s = true;
    }
    while let Some(x) = stack.pop() {
        for &(a, b) in links {
            let other = if a == x {
                b
            } else if b == x {
                a
            } else {
                continue;
            };
            if let Some(s) = seen.get_mut(other)
                && !*s
            {
                *s = true;
                stack.push(other);
            }
        }
    }
    seen.iter().all(|s| *s)
}

/// Whether the connected graph on `n` nodes can be laid out on a square grid with adjacency
/// exactly where the links are (an induced grid embedding). `n` is small (a route has at most
/// four cities plus its private RRs), so a backtracking search is quick.
pub fn embeds(n: usize, links: &[(usize, usize)]) -> bool {
    if n == 0 || !connected(n, links) {
        return false;
    }
    if n <= SMALL { embeds_small(n, links) } else { embeds_general(n, links) }
}

/// [`embeds`] for a connected graph of any size.
fn embeds_general(n: usize, links: &[(usize, usize)]) -> bool {
    let mut adj = vec![vec![false; n]; n];
    let mut degree = vec![0usize; n];
    for &(a, b) in links {
        if a >= n || b >= n || a == b {
            return false;
        }
        if let Some(row) = adj.get_mut(a) {
            row[b] = true;
        }
        if let Some(row) = adj.get_mut(b) {
            row[a] = true;
        }
    }
    for (i, row) in adj.iter().enumerate() {
        degree[i] = row.iter().filter(|x| **x).count();
    }
    if degree.iter().any(|&d| d > 4) {
        return false;
    }
    // Breadth-first order with each node's parent, so every node is placed next to a placed one.
    let mut order = vec![(0usize, usize::MAX)];
    let mut seen = vec![false; n];
    seen[0] = true;
    let mut i = 0;
    while let Some(&(x, _)) = order.get(i) {
        for y in 0..n {
            if adj[x][y] && !seen[y] {
                seen[y] = true;
                order.push((y, x));
            }
        }
        i += 1;
    }
    let mut pos: Vec<Option<(i32, i32)>> = vec![None; n];
    pos[0] = Some((0, 0));
    place(&adj, &order, 1, &mut pos)
}

fn place(adj: &[Vec<bool>], order: &[(usize, usize)], k: usize, pos: &mut [Option<(i32, i32)>]) -> bool {
    let Some(&(node, parent)) = order.get(k) else {
        return true;
    };
    let Some(Some((px, py))) = pos.get(parent).copied() else {
        return false;
    };
    // The second card's direction is fixed: the grid is symmetric.
    let dirs: &[(i32, i32)] = if k == 1 { &[(1, 0)] } else { &[(1, 0), (-1, 0), (0, 1), (0, -1)] };
    for &(dx, dy) in dirs {
        let cell = (px + dx, py + dy);
        let fits = pos.iter().enumerate().all(|(m, p)| match p {
            None => true,
            Some(q) if *q == cell => false,
            Some((qx, qy)) => {
                let touching = (qx - cell.0).abs() + (qy - cell.1).abs() == 1;
                touching == adj[node][m]
            }
        });
        if fits {
            pos[node] = Some(cell);
            if place(adj, order, k + 1, pos) {
                return true;
            }
            pos[node] = None;
        }
    }
    false
}

/// [`embeds`] for a connected graph of at most [`SMALL`] nodes, with bit sets and arrays.
fn embeds_small(n: usize, links: &[(usize, usize)]) -> bool {
    if links.iter().any(|&(a, b)| a >= n || b >= n || a == b) {
        return false;
    }
    let adj = bit_adj(n, links);
    if adj.iter().any(|a| a.count_ones() > 4) {
        return false;
    }
    // Breadth-first order with each node's parent, so every node is placed next to a placed one.
    let mut order = [(0usize, usize::MAX); SMALL];
    let mut len = 1;
    let mut seen = 1u32;
    let mut i = 0;
    while i < len {
        let x = order[i].0;
        for y in 0..n {
            if adj[x] & (1 << y) != 0 && seen & (1 << y) == 0 {
                seen |= 1 << y;
                order[len] = (y, x);
                len += 1;
            }
        }
        i += 1;
    }
    let mut pos = [(0i32, 0i32); SMALL];
    place_small(&adj, &order[..len], 1, 1, &mut pos)
}

fn place_small(
    adj: &[u32; SMALL],
    order: &[(usize, usize)],
    k: usize,
    placed: u32,
    pos: &mut [(i32, i32); SMALL],
) -> bool {
    let Some(&(node, parent)) = order.get(k) else {
        return true;
    };
    if placed & (1 << parent) == 0 {
        return false;
    }
    let (px, py) = pos[parent];
    // The second card's direction is fixed: the grid is symmetric.
    let dirs: &[(i32, i32)] = if k == 1 { &[(1, 0)] } else { &[(1, 0), (-1, 0), (0, 1), (0, -1)] };
    for &(dx, dy) in dirs {
        let cell = (px + dx, py + dy);
        let fits = (0..SMALL).filter(|m| placed & (1 << m) != 0).all(|m| {
            let (qx, qy) = pos[m];
            if (qx, qy) == cell {
                return false;
            }
            let touching = (qx - cell.0).abs() + (qy - cell.1).abs() == 1;
            touching == (adj[node] & (1 << m) != 0)
        });
        if fits {
            pos[node] = cell;
            if place_small(adj, order, k + 1, placed | (1 << node), pos) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_line_a_branch_and_a_four_card_loop_can_be_laid_out() {
        assert!(embeds(4, &[(0, 1), (1, 2), (2, 3)]));
        assert!(embeds(4, &[(0, 1), (0, 2), (0, 3)]));
        assert!(embeds(5, &[(0, 1), (0, 2), (0, 3), (0, 4)]));
        assert!(embeds(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]));
    }

    #[test]
    fn a_triangle_a_five_way_card_and_a_split_route_cannot_be_laid_out() {
        assert!(!embeds(3, &[(0, 1), (1, 2), (2, 0)]));
        assert!(!embeds(6, &[(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]));
        assert!(!embeds(4, &[(0, 1), (2, 3)]));
    }

    #[test]
    fn the_bit_set_layout_search_agrees_with_the_general_one_on_every_small_graph() {
        for n in 1..=6usize {
            let pairs: Vec<(usize, usize)> = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect();
            for set in 0u32..(1 << pairs.len()) {
                let links: Vec<(usize, usize)> =
                    pairs.iter().enumerate().filter(|(i, _)| set & (1 << i) != 0).map(|(_, l)| *l).collect();
                let general = connected_general(n, &links) && embeds_general(n, &links);
                assert_eq!(embeds(n, &links), general, "{n} nodes, links {links:?}");
                assert_eq!(connected(n, &links), connected_general(n, &links), "{n} nodes, links {links:?}");
            }
        }
    }

    #[test]
    fn a_loop_listed_in_any_order_can_be_laid_out_as_a_square() {
        assert!(embeds(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]));
        assert!(!embeds(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]), "an odd loop never fits a grid");
    }
}
